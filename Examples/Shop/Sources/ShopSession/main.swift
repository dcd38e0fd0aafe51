import ShopApp
import TrackcRuntime

// Runs the scripted visit and prints, after each step, the events each destination received. The
// feature code has no tracking calls: the events come from the generated interceptors.
let firebase = InMemoryDestination(id: "firebase")
let mixpanel = InMemoryDestination(id: "mixpanel")
let tracker = ShopApp.makeTracker(destinations: [firebase, mixpanel])
var printed = (firebase: 0, mixpanel: 0)

let screens = ScriptedSession().run(with: tracker) { step in
  print("• \(step.description)")
  for (destination, count) in [(firebase, printed.firebase), (mixpanel, printed.mixpanel)] {
    for event in destination.events.dropFirst(count) {
      print("    " + LoggingDestination.line(for: event, destination: destination.id))
    }
  }
  printed = (firebase.events.count, mixpanel.events.count)
}
print("order placed: \(screens.orderPlaced); \(firebase.events.count) events to firebase, \(mixpanel.events.count) to mixpanel")
