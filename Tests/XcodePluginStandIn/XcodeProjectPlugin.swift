// A stand-in for Linux: the part of Xcode's XcodeProjectPlugin module that TrackcBuildPlugin uses, declared
// as Apple's documentation of the module gives it (XcodeBuildToolPlugin, XcodePluginContext with its
// xcodeProject and pluginWorkDirectoryURL and tool(named:), XcodeProject.directoryURL, XcodeTarget's
// displayName and inputFiles). XcodeProjectPlugin exists only inside Xcode; compiled as a module of that
// name, this makes the plugin's `#if canImport(XcodeProjectPlugin)` branch type-check here
// (`XcodeBuildPluginTests`). It checks the plugin against these declarations, not against Xcode's module,
// and nothing here runs.
import Foundation
import PackagePlugin

public protocol XcodeBuildToolPlugin {
  func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command]
}

public struct XcodePluginContext {
  public let xcodeProject: XcodeProject
  public let pluginWorkDirectoryURL: URL

  public func tool(named name: String) throws -> PluginContext.Tool {
    fatalError("a stand-in: nothing runs")
  }
}

public struct XcodeProject {
  public let displayName: String
  public let directoryURL: URL
  public let targets: [XcodeTarget]
}

public struct XcodeTarget {
  public let displayName: String
  public let inputFiles: FileList
}
