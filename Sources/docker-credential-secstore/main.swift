// docker's credential helper over a SecStore store: `"credsStore": "secstore"` in ~/.docker/config.json.
// Everything is in CredentialBridge (DockerCredentialHelper); docs/integrations.md describes it.
import CredentialBridge

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(DockerCredentialHelper.run(arguments: Array(CommandLine.arguments.dropFirst())))
