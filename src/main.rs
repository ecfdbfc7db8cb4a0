fn main() -> std::process::ExitCode {
    handoff_inspector::cli::main()
}
