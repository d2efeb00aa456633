/// A payment card in the wallet (seed 002, `Card`): number, holder, "Valid Thru" expiry and brand.
public struct PaymentCard: Sendable, Hashable, Codable {
    /// The card brand, which picks the card's artwork (the seed's `card.type`).
    public enum Brand: String, Sendable, Hashable, Codable, CaseIterable {
        /// Visa.
        case visa
        /// Mastercard.
        case mastercard
        /// American Express.
        case amex
        /// Discover.
        case discover
        /// UnionPay.
        case unionPay
        /// JCB.
        case jcb
    }

    /// The number as printed, grouped (for example `"4354 8374 3473 4373"`).
    public var number: String
    /// The holder's name.
    public var holder: String
    /// The expiry as printed after "Valid Thru" (`"MM/YY"`).
    public var expiry: String
    /// The card's brand.
    public var brand: Brand

    /// A payment card with the printed number, holder, expiry (`"MM/YY"`) and brand.
    public init(number: String, holder: String, expiry: String, brand: Brand) {
        self.number = number
        self.holder = holder
        self.expiry = expiry
        self.brand = brand
    }
}

/// One line of the wallet's transaction history (seed 002, `Transaction`).
public struct Transaction: Sendable, Hashable, Codable, Identifiable {
    public var id: Int
    /// The merchant's name as shown in the history.
    public var merchant: String
    /// The amount in cents (no floating-point money).
    public var amountCents: Int
    /// The date as `YYYY-MM-DD`.
    public var date: String
    /// An icon name (an SF Symbol name in the seed; front ends map it to a glyph).
    public var icon: String

    /// A transaction; `amountCents` is in cents, `date` is `YYYY-MM-DD`.
    public init(id: Int, merchant: String, amountCents: Int, date: String, icon: String) {
        self.id = id
        self.merchant = merchant
        self.amountCents = amountCents
        self.date = date
        self.icon = icon
    }

    /// The amount as `"$12.34"`.
    public var formattedAmount: String {
        let sign = amountCents < 0 ? "-" : ""
        let magnitude = amountCents.magnitude
        let cents = magnitude % 100
        return "\(sign)$\(magnitude / 100).\(cents < 10 ? "0" : "")\(cents)"
    }
}
