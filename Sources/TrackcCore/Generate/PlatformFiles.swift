import TrackcLinks

/// The files other platforms read, from the same entry points the Swift routes come from, so that one
/// declaration drives both: the `applinks` part of an `apple-app-site-association` file for the
/// universal-link hosts, and an Android manifest whose intent filters open the same links. Written by
/// `trackc generate` where `links.apple.site_association` and `links.android.manifest` say (relative to
/// the config), and checked by `--check` like the Swift files. Deterministic; every string from the
/// config escaped for its format.
enum PlatformFiles {
  /// Apple's limit on the size of an `apple-app-site-association` file, uncompressed.
  static let siteAssociationLimit = 128 * 1024

  /// The files the config asks for, named by their paths relative to the config. The privacy manifest
  /// is among them when `privacy.manifest` says where, unless `manifestBesideCode` (a build plugin, which
  /// writes only into its own directory): otherwise it goes beside the generated Swift (`Generator`).
  static func files(_ plan: ResolvedPlan, configFileName: String, manifestBesideCode: Bool = false) -> [Generator.File] {
    var files: [Generator.File] = []
    // `platform-file-path` has refused these already (generation stops on errors); never write them anyway.
    if let path = plan.config.links?.apple?.siteAssociation?.value, PlatformFilePathRule.problem(with: path) == nil {
      files.append(Generator.File(name: path, contents: siteAssociation(plan)))
    }
    if let path = plan.config.links?.android?.manifest?.value, PlatformFilePathRule.problem(with: path) == nil {
      files.append(Generator.File(name: path, contents: androidManifest(plan, configFileName: configFileName)))
    }
    if !manifestBesideCode, let path = plan.config.privacy?.manifest?.value, PlatformFilePathRule.problem(with: path) == nil {
      files.append(Generator.File(name: path, contents: PrivacyManifest.propertyList(plan, configFileName: configFileName)))
    }
    return files
  }

  // MARK: apple-app-site-association

  /// `{"applinks": {"details": [{"appIDs": [...], "components": [...]}]}}`: the excluded paths first, then
  /// a component per universal-link pattern (`*` for each parameter, the required query items under
  /// `?`), in the config's order; under `trailing_slash: ignore`, the path with a trailing `/` too; under
  /// `path_case: insensitive`, every component `"caseSensitive": false` (the system compares paths with
  /// their case otherwise, and would not open the app for `/Product/1`).
  static func siteAssociation(_ plan: ResolvedPlan) -> String {
    let apple = plan.config.links?.apple
    let entryPoints = plan.entryPoints
    let caseInsensitive = entryPoints.rules.pathCase == .insensitive
    var components: [JSONValue] = []
    func append(_ component: [String: JSONValue]) {
      var component = component
      if caseInsensitive { component["caseSensitive"] = .bool(false) }
      components.append(.object(component))
    }
    for path in apple?.exclude ?? [] {
      append(["/": .string(path.value), "exclude": .bool(true), "comment": .string("kept for the web")])
    }
    for link in entryPoints.links {
      switch link.pattern.origin {
      case .scheme: continue
      case .everywhere, .host: break
      }
      var path =
        "/"
        + link.pattern.segments.map { segment -> String in
          switch segment {
          case .literal(let text): return LinkEncoding.segment(text)
          case .parameter: return "*"
          }
        }.joined(separator: "/")
      if link.pattern.trailingSlash && path != "/" { path += "/" }
      var paths = [path]
      if entryPoints.rules.trailingSlash == .ignore && !path.hasSuffix("/") && !path.hasSuffix("*") { paths.append(path + "/") }
      var query: [String: JSONValue] = [:]
      for item in link.pattern.query where item.requirement == .required { query[LinkEncoding.percentEncoded(item.key)] = .string("?*") }
      for path in paths {
        var component: [String: JSONValue] = ["/": .string(path), "comment": .string(entryPoints.routes[link.route].name)]
        if !query.isEmpty { component["?"] = .object(query) }
        append(component)
      }
    }
    let details: JSONValue = .object([
      "appIDs": .array((apple?.appIDs ?? []).map { .string($0.value) }),
      "components": .array(components),
    ])
    return JSONOutput.encode(JSONValue.object(["applinks": .object(["details": .array([details])])]))
  }

  // MARK: Android

  /// A manifest to merge into the app's (`tools:node="merge"` on the activity): an intent filter per link
  /// pattern. Universal links are `https` on every declared host with `android:autoVerify`; deep links are
  /// the scheme with the pattern's host. Paths are `android:pathPattern`s: `.*` for each parameter,
  /// literal `.`, `*` and `\` escaped. They compare with case, whatever `links.path_case` says (the
  /// manifest says so, and `android-path-case` warns).
  static func androidManifest(_ plan: ResolvedPlan, configFileName: String) -> String {
    let activity = plan.config.links?.android?.activity?.value ?? ".MainActivity"
    let entryPoints = plan.entryPoints
    var lines = [
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
      "<!-- Generated by trackc from \(TextEscaping.markupComment(configFileName)). Do not edit. -->",
      "<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\" xmlns:tools=\"http://schemas.android.com/tools\">",
      "  <application>",
      "    <activity android:name=\"\(TextEscaping.markup(activity))\" android:exported=\"true\" tools:node=\"merge\">",
    ]
    if entryPoints.rules.pathCase == .insensitive {
      lines.append(
        "      <!-- links.path_case is insensitive, but Android compares these paths with their case: /Product/1 does not open the app. -->")
    }
    for link in entryPoints.links {
      let pattern = link.pattern
      let name = entryPoints.routes[link.route].name
      func filter(web: Bool, schemes: [String], hosts: [String], segments: ArraySlice<LinkPattern.Segment>) {
        lines.append("      <!-- \(TextEscaping.markupComment(name)): \(TextEscaping.markupComment(pattern.text)) -->")
        lines.append(web ? "      <intent-filter android:autoVerify=\"true\">" : "      <intent-filter>")
        lines.append("        <action android:name=\"android.intent.action.VIEW\" />")
        lines.append("        <category android:name=\"android.intent.category.DEFAULT\" />")
        lines.append("        <category android:name=\"android.intent.category.BROWSABLE\" />")
        for scheme in schemes { lines.append("        <data android:scheme=\"\(TextEscaping.markup(scheme))\" />") }
        for host in hosts { lines.append("        <data android:host=\"\(TextEscaping.markup(host))\" />") }
        if !segments.isEmpty {
          var path = "/" + segments.map(pathPattern).joined(separator: "/")
          if pattern.trailingSlash { path += "/" }
          lines.append("        <data android:pathPattern=\"\(TextEscaping.markup(path))\" />")
        }
        lines.append("      </intent-filter>")
      }
      let deepLinkHost: String? = {
        if case .literal(let host)? = pattern.segments.first { return host.lowercased() }
        return nil
      }()
      switch pattern.origin {
      case .everywhere:
        if !entryPoints.hosts.isEmpty { filter(web: true, schemes: ["https"], hosts: entryPoints.hosts, segments: pattern.segments[...]) }
        if !entryPoints.schemes.isEmpty, let host = deepLinkHost {
          filter(web: false, schemes: entryPoints.schemes, hosts: [host], segments: pattern.segments.dropFirst())
        }
      case .host(let host):
        filter(web: true, schemes: ["https"], hosts: [host], segments: pattern.segments[...])
      case .scheme(let scheme):
        if let host = deepLinkHost { filter(web: false, schemes: [scheme], hosts: [host], segments: pattern.segments.dropFirst()) }
      }
    }
    lines += ["    </activity>", "  </application>", "</manifest>"]
    return lines.joined(separator: "\n") + "\n"
  }

  private static func pathPattern(_ segment: LinkPattern.Segment) -> String {
    switch segment {
    case .parameter: return ".*"
    case .literal(let text):
      // pathPattern matches the decoded path; `\\` escapes `.` and `*` (one backslash once XML is read).
      var result = ""
      for character in text {
        if character == "." || character == "*" || character == "\\" { result += "\\\\" }
        result.append(character)
      }
      return result
    }
  }
}
