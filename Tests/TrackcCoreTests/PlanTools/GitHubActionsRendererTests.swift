import Testing
import TrackcCore

/// Workflow commands escape as `@actions/core` does, so that no string ends a command or starts another.
@Suite struct GitHubActionsRendererTests {
  @Test func escapesDataAndProperties() {
    #expect(GitHubActionsCommand.escapeData("50% done\r\nnext") == "50%25 done%0D%0Anext")
    #expect(GitHubActionsCommand.escapeData("a: b, c") == "a: b, c")
    #expect(GitHubActionsCommand.escapeProperty("dir,name:x%\n") == "dir%2Cname%3Ax%25%0A")
  }

  @Test func rendersLocationAndTitle() {
    let diagnostic = Diagnostic(
      .error, rule: "unknown-key", "unknown key 'screen'; did you mean 'screens'?",
      at: SourceLocation(file: "App/tracking,v2.yaml", range: SourceRange(start: .init(line: 3, column: 1), end: .init(line: 3, column: 7))),
      notes: [Diagnostic.Note("allowed here: 'version', 'screens'")])
    #expect(
      GitHubActionsDiagnosticRenderer.render([diagnostic])
        == "::error file=App/tracking%2Cv2.yaml,line=3,col=1,endLine=3,endColumn=7,title=unknown-key::unknown key 'screen'; did you mean 'screens'?%0Anote: allowed here: 'version', 'screens'\n"
    )
    let warning = Diagnostic(.warning, rule: "empty-screen", "empty", at: SourceLocation(file: "t.yaml", line: 2, column: 3))
    #expect(GitHubActionsDiagnosticRenderer.render([warning]) == "::warning file=t.yaml,line=2,col=3,title=empty-screen::empty\n")
  }

  @Test func multiLineRangeEndsAtItsLine() {
    let command = GitHubActionsCommand(
      level: .notice, file: "t.yaml", range: SourceRange(start: .init(line: 2, column: 5), end: .init(line: 4, column: 1)), title: nil,
      message: "m")
    #expect(command.line == "::notice file=t.yaml,line=2,col=5,endLine=4::m\n")
    #expect(GitHubActionsCommand(level: .error, file: nil, range: nil, title: nil, message: "m").line == "::error::m\n")
  }
}
