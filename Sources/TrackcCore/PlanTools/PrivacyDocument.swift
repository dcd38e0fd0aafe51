/// The privacy section of `trackc docs`, for a privacy reviewer: what personal data the plan collects,
/// linked to the person or not, used to track or not, for which purposes, sent to which destinations
/// and by what; then each destination's purposes, consent category and tracking domains, and the
/// consent categories. Every string from the config goes through `HTMLWriter`, like the rest of the page.
extension PlanDocument {
  static func privacy(_ html: inout HTMLWriter, _ privacy: PrivacyOutline, configName: String) {
    html.open("section", ["class": "privacy", "id": "privacy", "aria-labelledby": "privacy-title"])
    html.element("h2", "Privacy", ["id": "privacy-title"])
    let domains = privacy.trackingDomains.isEmpty ? "none" : privacy.trackingDomains.joined(separator: ", ")
    html.element(
      "p",
      [
        "\(privacy.dataTypes.count) data type\(privacy.dataTypes.count == 1 ? "" : "s") collected",
        "used to track: \(privacy.tracking ? "yes" : "no")",
        "tracking domains: \(domains)", "declared from \(configName):\(privacy.range.start.line)",
      ].joined(separator: " · "), ["class": "facts"])

    openTable(&html, class: "data-types", headings: ["Data type", "Linked to the person", "Used to track", "Purposes", "Sent to", "Sent by"])
    for type in privacy.dataTypes {
      html.open("tr")
      html.open("td")
      html.text("\(type.dataType.category): \(type.dataType.label) ")
      html.element("code", type.dataType.rawValue)
      html.close("td")
      html.element("td", type.linked ? "yes" : "no")
      html.element("td", type.tracking ? "yes" : "no", ["class": type.tracking ? "missing" : ""])
      html.element("td", type.purposes.isEmpty ? "none declared" : type.purposes.map(\.label).joined(separator: ", "))
      html.element("td", type.destinations.isEmpty ? "every destination" : type.destinations.joined(separator: ", "))
      html.open("td")
      html.open("ul", ["class": "sources"])
      for source in type.sources { html.element("li", source) }
      html.close("ul")
      html.close("td")
      html.close("tr")
    }
    if privacy.dataTypes.isEmpty {
      html.open("tr")
      html.element("td", "The plan sends no personal data.", ["class": "none"])
      html.close("tr")
    }
    html.close("tbody")
    html.close("table")

    openTable(&html, class: "privacy-destinations", headings: ["Destination", "Purposes", "Consent category", "Tracking domains", "Receives"])
    for destination in privacy.destinations {
      html.open("tr")
      html.open("td")
      html.element("code", destination.id)
      html.close("td")
      html.element("td", destination.purposes.map { $0.map(\.label).joined(separator: ", ") } ?? "not declared")
      html.element("td", destination.consent ?? "none")
      html.element("td", destination.trackingDomains.isEmpty ? "none" : destination.trackingDomains.joined(separator: ", "))
      html.element("td", destination.dataTypes.isEmpty ? "no personal data" : destination.dataTypes.map(\.label).joined(separator: ", "))
      html.close("tr")
    }
    html.close("tbody")
    html.close("table")

    if !privacy.consentCategories.isEmpty {
      openTable(&html, class: "consent", headings: ["Consent category", "Before the person answers", "Gates", "Description"])
      for category in privacy.consentCategories {
        html.open("tr")
        html.open("td")
        html.element("code", category.name)
        html.close("td")
        html.element("td", category.defaultValue.rawValue)
        html.element("td", category.destinations.isEmpty ? "no destination" : category.destinations.joined(separator: ", "))
        html.element("td", category.description ?? "")
        html.close("tr")
      }
      html.close("tbody")
      html.close("table")
    }
    html.close("section")
  }

  /// A table with its head row, left open in its body.
  private static func openTable(_ html: inout HTMLWriter, class name: String, headings: [String]) {
    html.open("table", ["class": name])
    html.open("thead")
    html.open("tr")
    for heading in headings { html.element("th", heading, ["scope": "col"]) }
    html.close("tr")
    html.close("thead")
    html.open("tbody")
  }
}
