// git's credential helper over a SecStore store: `git config --global credential.helper secstore`.
// Everything is in CredentialBridge (GitCredentialHelper); docs/integrations.md describes it.
import CredentialBridge

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(GitCredentialHelper.run(arguments: Array(CommandLine.arguments.dropFirst())))
