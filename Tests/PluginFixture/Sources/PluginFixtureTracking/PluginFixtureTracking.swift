import TrackcRuntime

/// Hand-written code beside the generated `Tracking` (from tracking.yaml, at build time).
public enum PluginFixture {
  public static let registry: any TrackingRegistry = Tracking.registry
}
