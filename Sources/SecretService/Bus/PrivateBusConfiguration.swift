/// The `dbus-daemon` configuration of a private session bus, for the tests and the benchmark
/// that run the provider beside real clients: it listens on one socket path and declares no
/// service directories, so nothing is activated on it — no other Secret Service provider
/// (GNOME Keyring's activation file, say) can start in the provider's place.
///
/// ```swift
/// try PrivateBusConfiguration.text(listeningAt: "/tmp/x/bus").write(to: configURL, atomically: true, encoding: .utf8)
/// // dbus-daemon --config-file=/tmp/x/bus.conf --nofork --print-address
/// ```
package enum PrivateBusConfiguration {
    /// The configuration file's text. Eavesdropping is allowed so that tests can watch
    /// signals with `dbus-monitor`.
    package static func text(listeningAt socketPath: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socketPath)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }
}
