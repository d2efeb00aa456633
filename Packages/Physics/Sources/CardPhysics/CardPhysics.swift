// CardPhysics: springs, timing curves, rubber band, deceleration and the animation timeline.
// Time is always a parameter here: nothing in this module reads a clock.
//
// - `Spring` (+Presets, +Motion, +Settling): SwiftUI's parameterisations and exact closed-form motion.
// - `TimingCurve`: cubic Bézier curves solved for x.
// - `Animation` (+Presets, +Motion): a spring or a curve with delay and speed; `Animator` is the seam that
//   evaluates it (`ClosedFormAnimator`, `InstantAnimator`).
// - `RubberBand`, `Deceleration`: the scroll-view models.
// - `Animatable`, `AnimatableVector`: values that animate; `AnimationTimeline`: every running animation by key.
