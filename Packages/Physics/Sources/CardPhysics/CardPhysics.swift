@_exported import CardGeometry

// CardPhysics: springs, timing curves, rubber band, deceleration and the animation timeline.
// Time is always a parameter here: nothing in this module reads a clock.
