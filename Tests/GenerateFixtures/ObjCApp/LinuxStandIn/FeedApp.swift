/// Stand-ins, on Linux, for the view controllers of `ObjCApp/Sources/FeedApp` (which import UIKit and
/// cannot be built here): the same classes, with the same superclasses, in a module of the same name, so
/// that the types of their objects read as the generated registry names them (`FeedApp.FeedViewController`)
/// when `GeneratedObjCHookTests` calls the handlers the way the Objective-C runtime would.
open class FeedViewController {
  public init() {}
}

public final class PromoFeedViewController: FeedViewController {}

public final class ArchiveFeedViewController: FeedViewController {}

public final class StoriesViewController {
  public init() {}
}
