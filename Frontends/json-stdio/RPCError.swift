/// A JSON-RPC 2.0 error: a code, a message naming what is wrong, and optional structured data.
///
/// Standard codes come from the JSON-RPC 2.0 specification §5.1; the server's own codes lie in the range
/// −32000…−32099 that the specification reserves for implementation-defined server errors.
struct RPCError: Error, Sendable, Hashable, CustomStringConvertible {
    var code: Int
    var message: String

    init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    var description: String { "\(code): \(message)" }

    /// −32700: the line is not JSON (or not UTF-8), or is longer than the line cap.
    static let parseErrorCode = -32700
    /// −32600: valid JSON that is not a request object.
    static let invalidRequestCode = -32600
    /// −32601: no such method.
    static let methodNotFoundCode = -32601
    /// −32602: invalid parameters; the message names the field.
    static let invalidParamsCode = -32602
    /// −32603: an internal error.
    static let internalErrorCode = -32603
    /// −32002: a request other than `initialize` before `initialize` (the code the Language Server Protocol uses).
    static let notInitializedCode = -32002
    /// −32010: `scene.open` named a scene that is not in the catalogue.
    static let unknownSceneCode = -32010
    /// −32011: a card id that is not in the scene's deck.
    static let unknownCardCode = -32011
    /// −32012: the request is not valid now: no scene is open, `initialize` twice, a request after `shutdown`,
    /// or a scene refused the request in its current state.
    static let invalidStateCode = -32012
    /// −32013: the deck store failed (missing deck, unreadable document, a write that failed).
    static let storeErrorCode = -32013

    static func parse(_ reason: String) -> RPCError {
        RPCError(code: parseErrorCode, message: "parse error: " + reason)
    }
    static func invalidRequest(_ reason: String) -> RPCError {
        RPCError(code: invalidRequestCode, message: "invalid request: " + reason)
    }
    static func methodNotFound(_ name: String) -> RPCError {
        RPCError(code: methodNotFoundCode, message: "method not found: '\(name)'")
    }
    static func invalidParams(_ field: String, _ reason: String) -> RPCError {
        RPCError(code: invalidParamsCode, message: "invalid params: '\(field)' \(reason)")
    }
    static func invalidState(_ reason: String) -> RPCError { RPCError(code: invalidStateCode, message: reason) }
}
