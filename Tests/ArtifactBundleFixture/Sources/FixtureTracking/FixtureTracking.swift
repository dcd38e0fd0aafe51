// The registry trackc generates goes beside this file (`swift package trackc generate --target FixtureTracking`).
