/// The type aliases of Apple's SDKs and the standard library that apps write for plain values, with the
/// types they stand for: the one list trackc reads them from (`TypeResolver` follows them as it follows
/// the app's own). A name is looked up with or without its module (`TimeInterval`,
/// `Foundation.TimeInterval`).
///
/// Only aliases of value types a property can hold are listed; an SDK alias of anything else (a class, a
/// closure) is a type outside the sources either way.
enum SDKTypeAliases {
  static let table: [String: String] = [
    // Foundation and Core Foundation
    "TimeInterval": "Double",
    "NSTimeInterval": "Double",
    "CFTimeInterval": "Double",
    "CFAbsoluteTime": "Double",
    "NSInteger": "Int",
    "NSUInteger": "UInt",
    "CFIndex": "Int",
    "unichar": "UInt16",
    "UniChar": "UInt16",
    // Core Location
    "CLLocationDegrees": "Double",
    "CLLocationDistance": "Double",
    "CLLocationAccuracy": "Double",
    "CLLocationSpeed": "Double",
    "CLLocationSpeedAccuracy": "Double",
    "CLLocationDirection": "Double",
    "CLLocationDirectionAccuracy": "Double",
    "CLHeadingComponentValue": "Double",
    // Core Media
    "CMTimeValue": "Int64",
    "CMTimeScale": "Int32",
    "CMTimeEpoch": "Int64",
    // The standard library's C and literal types
    "Float32": "Float",
    "Float64": "Double",
    "CBool": "Bool",
    "CChar": "Int8",
    "CSignedChar": "Int8",
    "CUnsignedChar": "UInt8",
    "CShort": "Int16",
    "CUnsignedShort": "UInt16",
    "CInt": "Int32",
    "CUnsignedInt": "UInt32",
    "CLong": "Int",
    "CUnsignedLong": "UInt",
    "CLongLong": "Int64",
    "CUnsignedLongLong": "UInt64",
    "CFloat": "Float",
    "CDouble": "Double",
    "StringLiteralType": "String",
    "IntegerLiteralType": "Int",
    "FloatLiteralType": "Double",
    "BooleanLiteralType": "Bool",
  ]

  /// The modules these aliases (and the standard types) are declared in, under which code may qualify them.
  static let modules: Set<String> = [
    "Swift", "Foundation", "CoreFoundation", "CoreGraphics", "CoreLocation", "CoreMedia", "UIKit", "AppKit", "SwiftUI", "Combine",
    "Observation",
  ]
}
