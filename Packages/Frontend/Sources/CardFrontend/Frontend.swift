/// A front end of Cardistry: a command that turns the outside world (a terminal, a pipe) into engine input and
/// engine output into something the outside world reads, for as long as a session lasts.
///
/// Front ends are plugins. Each lives in its own target, imports the engine (never another front end), knows no
/// concrete scene (it is handed a scene catalogue when it is registered) and is listed once in the command line's
/// registration point (`CardistryCLI.CLI.commands`), so adding a front end is one new target plus one registration
/// line. `cardistry --help` lists the front ends apart from the tools, and `cardistry` with no arguments on a
/// terminal runs the front end named `tui`. A tool that runs once and exits (`deck`, `spring`, `replay`) is a
/// `Command`, not a front end.
public protocol Frontend: Command {}
