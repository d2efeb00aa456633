// Embeds the engine headlessly: opens the flashcards scene, swipes the top card away with pointer events, samples
// frames while it animates, and uses the reorder diff and a spring on their own. Exits 1 if anything is not as
// documented, so CI can run it as a test of the libraries' public API.
import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics
import CardScenes

#if canImport(Glibc)
    import Glibc
#endif

var failures = 0
@MainActor func check(_ condition: Bool, _ what: String) {
    print((condition ? "ok    " : "FAIL  ") + what)
    if !condition { failures += 1 }
}

// 1. A scene from the standard catalogue, in a landscape phone-sized viewport (points).
let viewport = Size(width: 844, height: 390)
var engine = Engine(scene: try SceneCatalog.standard.make("flashcards"), viewport: viewport)
let first = engine.frame(at: 0)
let cards = first.nodes.filter { $0.role == .card }
guard let top = cards.max(by: { $0.z < $1.z }) else {
    print("FAIL  the flashcards scene shows no card")
    exit(1)
}
check(engine.deck.count == cards.count, "every card of the deck is on screen (\(cards.count))")

// 2. Pointer input with timestamps (seconds): drag the top card 300 points to the left over 0.2 s.
let start = Point(x: top.rect.midX, y: top.rect.midY)
engine.handle(.pointer(PointerEvent(.down, at: start, time: 1)))
for step in 1...10 {
    let x = start.x - 30 * Double(step)
    engine.handle(.pointer(PointerEvent(.move, at: Point(x: x, y: start.y), time: 1 + 0.02 * Double(step))))
}
engine.handle(.pointer(PointerEvent(.up, at: Point(x: start.x - 300, y: start.y), time: 1.2)))

// 3. Frames at any time: the card flies off while the scene animates, then everything settles.
var time = 1.2
var animatedFrames = 0
while engine.nextWakeTime() != nil && time < 5 {
    time += 1.0 / 60
    if engine.frame(at: time).isAnimating { animatedFrames += 1 }
}
check(animatedFrames > 5, "the swipe animates (\(animatedFrames) frames at 60 Hz)")
check(engine.deck.count == cards.count - 1, "the swiped card left the deck (\(engine.deck.count) remain)")
check(engine.frame(at: time).node(card: top.card ?? CardID(0)) == nil, "the swiped card is gone from the frame")

// 4. The reorder diff on its own: the minimal moves between two orders of unique keys.
let old = Array(0..<1000)
var new = old
new.swapAt(10, 990)
let diff = try ReorderDiff(from: old, to: new)
check(diff.moves.count == 2 && diff.insertions.isEmpty && diff.removals.isEmpty, "swapping two keys is 2 moves")
check(try diff.applied(to: old, inserting: []) == new, "applying the diff gives the new order")

// 5. A spring on its own: SwiftUI's .smooth (duration 0.5, bounce 0) from 0 to 100 points.
let spring = try Spring(duration: 0.5, bounce: 0)
let halfway = spring.value(from: 0, to: 100, at: 0.25)
check(halfway > 50 && halfway < 100, "halfway through, the spring has covered \(Int(halfway)) of 100 points")
check(spring.settlingDuration > 0.5 && spring.settlingDuration < 2, "it settles in \(spring.settlingDuration) s")

exit(failures == 0 ? 0 : 1)
