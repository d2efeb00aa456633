import CardEngine

// CardStdio: JSON-RPC 2.0 over newline-delimited JSON on stdin/stdout (issue: `cardistry stdio`).
