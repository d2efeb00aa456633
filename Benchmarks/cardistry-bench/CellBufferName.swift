import CardCells

/// The cell buffer, under its name in this module: the rasteriser moved from CardTUI to CardCells (issue 32), and
/// MillionSuite.swift, which imports CardTUI only, draws into one. (A name of this module shadows the imported one,
/// so files that import CardCells see the same type.)
typealias CellBuffer = CardCells.CellBuffer
