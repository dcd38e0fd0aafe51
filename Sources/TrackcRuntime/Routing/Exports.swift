// Generated routes read links with `ParsedLink`; an app that imports the runtime sees it too.
@_exported import TrackcRouting
