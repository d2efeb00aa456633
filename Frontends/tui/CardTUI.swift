import CardEngine

// CardTUI: the ANSI terminal front end (issue: `cardistry tui`). Renders engine frames into a cell buffer.
