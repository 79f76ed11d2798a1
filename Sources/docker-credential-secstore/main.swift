// docker's credential helper over a SecStore store: `"credsStore": "secstore"` in ~/.docker/config.json.
// Everything is in CredentialBridge (DockerCredentialHelper); docs/integrations.md describes it.
import CredentialBridge
import SecStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// No core file, no register dump: the helper holds the store's keys and the credential.
CrashHygiene.apply()
exit(DockerCredentialHelper.run(arguments: Array(CommandLine.arguments.dropFirst())))
