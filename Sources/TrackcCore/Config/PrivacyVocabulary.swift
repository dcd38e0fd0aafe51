/// What personal data a value is, in the words of Apple's privacy manifest: each case is one
/// `NSPrivacyCollectedDataType` value ("Describing data use in privacy manifests"), written in the
/// plan's snake_case (`email_address` for `NSPrivacyCollectedDataTypeEmailAddress`). The cases are in
/// Apple's order, which is also the order the manifest, the exports and the plan page list them in.
public enum PersonalDataType: String, Sendable, DeclarationOrdered {
  // Contact info.
  case name
  case emailAddress = "email_address"
  case phoneNumber = "phone_number"
  case physicalAddress = "physical_address"
  case otherUserContactInfo = "other_user_contact_info"
  // Health and fitness.
  case health
  case fitness
  // Financial info.
  case paymentInfo = "payment_info"
  case creditInfo = "credit_info"
  case otherFinancialInfo = "other_financial_info"
  // Location.
  case preciseLocation = "precise_location"
  case coarseLocation = "coarse_location"
  // Sensitive info.
  case sensitiveInfo = "sensitive_info"
  // Contacts.
  case contacts
  // User content.
  case emailsOrTextMessages = "emails_or_text_messages"
  case photosOrVideos = "photos_or_videos"
  case audioData = "audio_data"
  case gameplayContent = "gameplay_content"
  case customerSupport = "customer_support"
  case otherUserContent = "other_user_content"
  // Browsing and search history.
  case browsingHistory = "browsing_history"
  case searchHistory = "search_history"
  // Identifiers.
  case userID = "user_id"
  case deviceID = "device_id"
  // Purchases.
  case purchaseHistory = "purchase_history"
  // Usage data.
  case productInteraction = "product_interaction"
  case advertisingData = "advertising_data"
  case otherUsageData = "other_usage_data"
  // Diagnostics.
  case crashData = "crash_data"
  case performanceData = "performance_data"
  case otherDiagnosticData = "other_diagnostic_data"
  // Surroundings and body.
  case environmentScanning = "environment_scanning"
  case hands
  case head
  // Other data.
  case otherDataTypes = "other_data_types"

  /// The `NSPrivacyCollectedDataType` value, exactly as Apple spells it (`PhotosorVideos` included).
  public var manifestValue: String {
    switch self {
    case .name: return "NSPrivacyCollectedDataTypeName"
    case .emailAddress: return "NSPrivacyCollectedDataTypeEmailAddress"
    case .phoneNumber: return "NSPrivacyCollectedDataTypePhoneNumber"
    case .physicalAddress: return "NSPrivacyCollectedDataTypePhysicalAddress"
    case .otherUserContactInfo: return "NSPrivacyCollectedDataTypeOtherUserContactInfo"
    case .health: return "NSPrivacyCollectedDataTypeHealth"
    case .fitness: return "NSPrivacyCollectedDataTypeFitness"
    case .paymentInfo: return "NSPrivacyCollectedDataTypePaymentInfo"
    case .creditInfo: return "NSPrivacyCollectedDataTypeCreditInfo"
    case .otherFinancialInfo: return "NSPrivacyCollectedDataTypeOtherFinancialInfo"
    case .preciseLocation: return "NSPrivacyCollectedDataTypePreciseLocation"
    case .coarseLocation: return "NSPrivacyCollectedDataTypeCoarseLocation"
    case .sensitiveInfo: return "NSPrivacyCollectedDataTypeSensitiveInfo"
    case .contacts: return "NSPrivacyCollectedDataTypeContacts"
    case .emailsOrTextMessages: return "NSPrivacyCollectedDataTypeEmailsOrTextMessages"
    case .photosOrVideos: return "NSPrivacyCollectedDataTypePhotosorVideos"
    case .audioData: return "NSPrivacyCollectedDataTypeAudioData"
    case .gameplayContent: return "NSPrivacyCollectedDataTypeGameplayContent"
    case .customerSupport: return "NSPrivacyCollectedDataTypeCustomerSupport"
    case .otherUserContent: return "NSPrivacyCollectedDataTypeOtherUserContent"
    case .browsingHistory: return "NSPrivacyCollectedDataTypeBrowsingHistory"
    case .searchHistory: return "NSPrivacyCollectedDataTypeSearchHistory"
    case .userID: return "NSPrivacyCollectedDataTypeUserID"
    case .deviceID: return "NSPrivacyCollectedDataTypeDeviceID"
    case .purchaseHistory: return "NSPrivacyCollectedDataTypePurchaseHistory"
    case .productInteraction: return "NSPrivacyCollectedDataTypeProductInteraction"
    case .advertisingData: return "NSPrivacyCollectedDataTypeAdvertisingData"
    case .otherUsageData: return "NSPrivacyCollectedDataTypeOtherUsageData"
    case .crashData: return "NSPrivacyCollectedDataTypeCrashData"
    case .performanceData: return "NSPrivacyCollectedDataTypePerformanceData"
    case .otherDiagnosticData: return "NSPrivacyCollectedDataTypeOtherDiagnosticData"
    case .environmentScanning: return "NSPrivacyCollectedDataTypeEnvironmentScanning"
    case .hands: return "NSPrivacyCollectedDataTypeHands"
    case .head: return "NSPrivacyCollectedDataTypeHead"
    case .otherDataTypes: return "NSPrivacyCollectedDataTypeOtherDataTypes"
    }
  }

  /// The data type as App Store Connect's questionnaire and the App Store label name it.
  public var label: String {
    switch self {
    case .name: return "Name"
    case .emailAddress: return "Email Address"
    case .phoneNumber: return "Phone Number"
    case .physicalAddress: return "Physical Address"
    case .otherUserContactInfo: return "Other User Contact Info"
    case .health: return "Health"
    case .fitness: return "Fitness"
    case .paymentInfo: return "Payment Info"
    case .creditInfo: return "Credit Info"
    case .otherFinancialInfo: return "Other Financial Info"
    case .preciseLocation: return "Precise Location"
    case .coarseLocation: return "Coarse Location"
    case .sensitiveInfo: return "Sensitive Info"
    case .contacts: return "Contacts"
    case .emailsOrTextMessages: return "Emails or Text Messages"
    case .photosOrVideos: return "Photos or Videos"
    case .audioData: return "Audio Data"
    case .gameplayContent: return "Gameplay Content"
    case .customerSupport: return "Customer Support"
    case .otherUserContent: return "Other User Content"
    case .browsingHistory: return "Browsing History"
    case .searchHistory: return "Search History"
    case .userID: return "User ID"
    case .deviceID: return "Device ID"
    case .purchaseHistory: return "Purchase History"
    case .productInteraction: return "Product Interaction"
    case .advertisingData: return "Advertising Data"
    case .otherUsageData: return "Other Usage Data"
    case .crashData: return "Crash Data"
    case .performanceData: return "Performance Data"
    case .otherDiagnosticData: return "Other Diagnostic Data"
    case .environmentScanning: return "Environment Scanning"
    case .hands: return "Hands"
    case .head: return "Head"
    case .otherDataTypes: return "Other Data Types"
    }
  }

  /// The group the App Store label lists the data type under.
  public var category: String {
    switch self {
    case .name, .emailAddress, .phoneNumber, .physicalAddress, .otherUserContactInfo: return "Contact Info"
    case .health, .fitness: return "Health & Fitness"
    case .paymentInfo, .creditInfo, .otherFinancialInfo: return "Financial Info"
    case .preciseLocation, .coarseLocation: return "Location"
    case .sensitiveInfo: return "Sensitive Info"
    case .contacts: return "Contacts"
    case .emailsOrTextMessages, .photosOrVideos, .audioData, .gameplayContent, .customerSupport, .otherUserContent: return "User Content"
    case .browsingHistory: return "Browsing History"
    case .searchHistory: return "Search History"
    case .userID, .deviceID: return "Identifiers"
    case .purchaseHistory: return "Purchases"
    case .productInteraction, .advertisingData, .otherUsageData: return "Usage Data"
    case .crashData, .performanceData, .otherDiagnosticData: return "Diagnostics"
    case .environmentScanning: return "Surroundings"
    case .hands, .head: return "Body"
    case .otherDataTypes: return "Other Data"
    }
  }
}

/// Why data is collected: each case one `NSPrivacyCollectedDataTypePurpose` value, in the plan's
/// snake_case (`third_party_advertising` for `NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising`).
public enum DataPurpose: String, Sendable, DeclarationOrdered {
  case thirdPartyAdvertising = "third_party_advertising"
  case developerAdvertising = "developer_advertising"
  case analytics
  case productPersonalization = "product_personalization"
  case appFunctionality = "app_functionality"
  case other

  /// The `NSPrivacyCollectedDataTypePurpose` value, exactly as Apple spells it.
  public var manifestValue: String {
    switch self {
    case .thirdPartyAdvertising: return "NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising"
    case .developerAdvertising: return "NSPrivacyCollectedDataTypePurposeDeveloperAdvertising"
    case .analytics: return "NSPrivacyCollectedDataTypePurposeAnalytics"
    case .productPersonalization: return "NSPrivacyCollectedDataTypePurposeProductPersonalization"
    case .appFunctionality: return "NSPrivacyCollectedDataTypePurposeAppFunctionality"
    case .other: return "NSPrivacyCollectedDataTypePurposeOther"
    }
  }

  /// The purpose as App Store Connect's questionnaire names it.
  public var label: String {
    switch self {
    case .thirdPartyAdvertising: return "Third-Party Advertising"
    case .developerAdvertising: return "Developer's Advertising or Marketing"
    case .analytics: return "Analytics"
    case .productPersonalization: return "Product Personalization"
    case .appFunctionality: return "App Functionality"
    case .other: return "Other Purposes"
    }
  }
}

/// Whether a consent category is granted before the person using the app has answered.
public enum ConsentDefault: String, Sendable, CaseIterable {
  case granted
  case denied
  /// Not answered yet: events for the category's destinations wait in the journal for the person's
  /// first answer (within `privacy.pending`'s limits), then go on a grant or are dropped on a refusal.
  case pending

  /// Denied: under the GDPR, consent is a clear affirmative act, and silence is not consent.
  public static let `default` = ConsentDefault.denied
}

extension PersonalDataType {
  /// The data type a misspelt or everyday word was likely meant as: a near miss (`emial_address`), or a
  /// word people use for one (`email`, `idfa`).
  public static func suggestion(for text: String) -> PersonalDataType? {
    Suggestions.value(for: text, everydayWords: everydayWords)
  }

  private static let everydayWords: [String: PersonalDataType] = [
    "email": .emailAddress, "mail": .emailAddress, "phone": .phoneNumber, "telephone": .phoneNumber, "mobile": .phoneNumber,
    "address": .physicalAddress, "postaladdress": .physicalAddress, "location": .preciseLocation, "gps": .preciseLocation,
    "idfa": .deviceID, "idfv": .deviceID, "advertisingid": .deviceID, "userid": .userID, "accountid": .userID,
    "customerid": .userID, "username": .userID, "purchases": .purchaseHistory, "search": .searchHistory,
    "usage": .productInteraction, "crash": .crashData, "diagnostics": .otherDiagnosticData, "other": .otherDataTypes,
  ]
}

extension DataPurpose {
  /// The purpose a misspelt or everyday word was likely meant as (`analytic`, `marketing`).
  public static func suggestion(for text: String) -> DataPurpose? {
    Suggestions.value(for: text, everydayWords: everydayWords)
  }

  private static let everydayWords: [String: DataPurpose] = [
    "ads": .thirdPartyAdvertising, "advertising": .thirdPartyAdvertising, "marketing": .developerAdvertising,
    "personalization": .productPersonalization, "personalisation": .productPersonalization, "functionality": .appFunctionality,
    "measurement": .analytics, "statistics": .analytics,
  ]
}

extension Suggestions {
  /// The value of a closed vocabulary a word was likely meant as: one of the `everydayWords` people use
  /// for it (compared without case, `_`, `-` or spaces), else the closest of its names.
  static func value<Value: RawRepresentable & CaseIterable>(for text: String, everydayWords: [String: Value]) -> Value?
  where Value.RawValue == String {
    let word = text.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " }
    if let meant = everydayWords[word] { return meant }
    return closest(to: text, in: Value.allCases.map(\.rawValue)).flatMap(Value.init(rawValue:))
  }
}

/// An enumeration whose cases sort in the order they are declared: Apple's order, for the privacy
/// vocabulary, which the manifest, the exports and the plan page list them in.
public protocol DeclarationOrdered: CaseIterable, Comparable {}

extension DeclarationOrdered {
  public static func < (lhs: Self, rhs: Self) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
