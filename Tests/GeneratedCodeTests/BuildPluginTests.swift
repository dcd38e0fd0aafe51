@_spi(Generated) import PluginFixtureTracking
import Testing
@_spi(Generated) import TrackcRuntime

/// `PluginFixtureTracking` has no generated code checked in: TrackcBuildPlugin generated its registry
/// from its tracking.yaml during this build, and it works.
@Suite struct BuildPluginTests {
  @Test func theGeneratedRegistryResolvesTheConfig() throws {
    let registry = PluginFixture.registry
    let home = try #require(registry.screen(named: "Shop.HomeViewController"))
    let handler = try #require(registry.handler(named: "onFavBtnPressed:"))
    #expect(registry.controlRule(screen: home, handler: handler)?.eventID == "CTRL_HOME_FAVORITE")
    #expect(registry.pageRule(screen: home, phase: .enter)?.routing == .only(["firebase"]))
  }
}
