// git's credential helper over a SecStore store: `git config --global credential.helper secstore`.
// Everything is in CredentialBridge (GitCredentialHelper); docs/integrations.md describes it.
import CredentialBridge
import SecStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// No core file, no register dump: the helper holds the store's keys and the credential.
CrashHygiene.apply()
exit(GitCredentialHelper.run(arguments: Array(CommandLine.arguments.dropFirst())))
