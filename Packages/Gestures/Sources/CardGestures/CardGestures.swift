// CardGestures: pointer events in, recognised gestures out. Time comes from the events and an injected clock.
// Units: positions in points, time in seconds, velocities in points per second.
