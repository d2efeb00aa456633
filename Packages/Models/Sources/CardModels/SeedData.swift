/// The seed apps' data sets, as static decks. Ids are fixed so that persisted state and golden tests stay valid.
///
/// Id ranges: students 1–5, payment cards 101–105, flashcards 201–212, item lines 301–303, coloured deck 401–412.
public enum SeedData {
    /// Builds a deck from literal seed data; a duplicate id here is a programming error caught by the tests.
    static func literalDeck(_ cards: [Card]) -> Deck {
        do {
            return try Deck(cards)
        } catch {
            preconditionFailure("seed data: \(error)")
        }
    }
}

extension SeedData {
    /// Seed 000's five students with fixed colours and ten scores each (65…97). Test 1 has a tie (Alice and Eve,
    /// 85), and the ranking changes from test to test.
    public static let students: Deck = literalDeck([
        student(1, "Alice", .red, [85, 92, 78, 88, 95, 70, 82, 90, 76, 88]),
        student(2, "Bob", .blue, [90, 85, 88, 72, 80, 95, 78, 84, 91, 67]),
        student(3, "Charlie", .green, [78, 88, 95, 85, 70, 82, 91, 76, 88, 93]),
        student(4, "Diana", .orange, [92, 76, 82, 95, 88, 78, 85, 97, 80, 74]),
        student(5, "Eve", .purple, [85, 95, 85, 80, 92, 88, 75, 82, 94, 86]),
    ])

    private static func student(_ id: UInt64, _ name: String, _ color: RGBColor, _ scores: [Int]) -> Card {
        do {
            return Card(
                id: CardID(id), title: name, color: color, sortOrder: Int(id) - 1,
                payload: .student(try StudentScores(scores)))
        } catch {
            preconditionFailure("seed data: \(error)")
        }
    }
}

extension SeedData {
    /// Seed 002's payment cards, Visa first and Discover last as in the starter project, five brands in all.
    public static let wallet: Deck = literalDeck([
        payment(101, "4354 8374 3473 4373", "Simon Ng", "08/29", .visa, .blue),
        payment(102, "5429 2345 5732 8474", "Simon Ng", "11/28", .mastercard, .orange),
        payment(103, "3782 822463 10005", "Simon Ng", "04/27", .amex, .teal),
        payment(104, "6222 0212 3456 7890", "Simon Ng", "02/30", .unionPay, .red),
        payment(105, "6011 1111 1111 1117", "Simon Ng", "12/27", .discover, .indigo),
    ])

    private static func payment(
        _ id: UInt64, _ number: String, _ holder: String, _ expiry: String, _ brand: PaymentCard.Brand,
        _ color: RGBColor
    ) -> Card {
        Card(
            id: CardID(id), title: brand.rawValue.capitalized, color: color, sortOrder: Int(id) - 101,
            payload: .payment(PaymentCard(number: number, holder: holder, expiry: expiry, brand: brand)))
    }

    /// Seed 002's transaction history (the starter project's `testTransactions`, re-created).
    public static let transactions: [Transaction] = [
        Transaction(id: 1, merchant: "Golden Dragon", amountCents: 2_450, date: "2026-11-02", icon: "fork.knife"),
        Transaction(id: 2, merchant: "Apple Store", amountCents: 129_900, date: "2026-11-03", icon: "applelogo"),
        Transaction(id: 3, merchant: "Metro Card", amountCents: 5_000, date: "2026-11-04", icon: "tram.fill"),
        Transaction(id: 4, merchant: "Blue Bottle", amountCents: 650, date: "2026-11-05", icon: "cup.and.saucer.fill"),
        Transaction(id: 5, merchant: "Whole Foods", amountCents: 8_732, date: "2026-11-06", icon: "cart.fill"),
        Transaction(id: 6, merchant: "Cinema City", amountCents: 3_200, date: "2026-11-08", icon: "film.fill"),
        Transaction(id: 7, merchant: "Shell", amountCents: 6_115, date: "2026-11-09", icon: "fuelpump.fill"),
        Transaction(id: 8, merchant: "Book Depot", amountCents: 1_999, date: "2026-11-11", icon: "book.fill"),
        Transaction(id: 9, merchant: "Gym Membership", amountCents: 4_900, date: "2026-11-12", icon: "figure.run"),
        Transaction(id: 10, merchant: "Pharmacy", amountCents: 1_245, date: "2026-11-14", icon: "cross.case.fill"),
        Transaction(id: 11, merchant: "Refund: Shoes", amountCents: -7_500, date: "2026-11-15", icon: "bag.fill"),
        Transaction(id: 12, merchant: "Music Stream", amountCents: 1_099, date: "2026-11-16", icon: "music.note"),
    ]
}

extension SeedData {
    /// Seed 003's flashcards: the seed's example first, then eleven more, all distinct.
    public static let flashcards: Deck = literalDeck(
        [
            (Flashcard.example.prompt, Flashcard.example.answer),
            ("What is the capital city of Scotland?", "Edinburgh"),
            ("What is the chemical symbol for gold?", "Au"),
            ("How many sides does a hexagon have?", "Six"),
            ("Who wrote 'Pride and Prejudice'?", "Jane Austen"),
            ("What is the largest planet in the Solar System?", "Jupiter"),
            ("In which year did the Berlin Wall fall?", "1989"),
            ("What is the square root of 144?", "12"),
            ("Which element has atomic number 1?", "Hydrogen"),
            ("What is the longest river in Africa?", "The Nile"),
            ("Who painted the Mona Lisa?", "Leonardo da Vinci"),
            ("What is the speed of light in vacuum, in km/s (rounded)?", "300,000"),
        ].enumerated().map { index, pair in
            Card(
                id: CardID(201 + UInt64(index)), title: pair.0, color: .white, sortOrder: index,
                payload: .flashcard(Flashcard(prompt: pair.0, answer: pair.1)))
        })
}

extension SeedData {
    /// Seed 001's item lines: three lines of three to four items, each with a colour, an icon and a text.
    public static let itemLines: Deck = literalDeck([
        itemLine(
            301, "Weather",
            [
                ("sun", .orange, "sun.max.fill", "Sunny"), ("cloud", .gray, "cloud.fill", "Cloudy"),
                ("rain", .blue, "cloud.rain.fill", "Rain"), ("snow", .cyan, "snowflake", "Snow"),
            ]),
        itemLine(
            302, "Nature",
            [
                ("leaf", .green, "leaf.fill", "Leaf"), ("flame", .red, "flame.fill", "Fire"),
                ("drop", .teal, "drop.fill", "Water"),
            ]),
        itemLine(
            303, "Favourites",
            [
                ("star", .yellow, "star.fill", "Star"), ("heart", .pink, "heart.fill", "Heart"),
                ("bolt", .purple, "bolt.fill", "Bolt"), ("moon", .indigo, "moon.fill", "Moon"),
            ]),
    ])

    private static func itemLine(
        _ id: UInt64, _ title: String, _ items: [(String, RGBColor, String, String)]
    ) -> Card {
        Card(
            id: CardID(id), title: title, color: items[0].1, sortOrder: Int(id) - 301,
            payload: .itemLine(
                ItemLine(items: items.map { ItemLine.Item(id: $0.0, color: $0.1, icon: $0.2, text: $0.3) })))
    }
}

extension SeedData {
    /// Seed 004's colourful deck: twelve plain cards with distinct colours and their sort order.
    public static let colorDeck: Deck = literalDeck(
        [
            "Inbox", "Reading List", "Recipes", "Travel", "Workouts", "Projects", "Groceries", "Movies", "Music",
            "Ideas", "Gifts", "Garden",
        ].enumerated().map { index, title in
            Card(
                id: CardID(401 + UInt64(index)), title: title, color: DeckGenerator.palette[index], sortOrder: index)
        })
}
