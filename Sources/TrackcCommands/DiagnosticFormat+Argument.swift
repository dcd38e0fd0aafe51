import ArgumentParser
import TrackcCore

/// `--format text|json|sarif|github`.
extension DiagnosticFormat: ExpressibleByArgument {}
