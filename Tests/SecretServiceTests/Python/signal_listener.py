"""A Secret Service client that prints each signal its own connection receives.

It calls the provider first (OpenSession), so the provider has seen it, then asks the bus for
the signals below /org/freedesktop/secrets with a match rule on its own connection: not a
monitor, so it receives broadcast signals and the unicast ones addressed to it, nothing else.
It prints "ready", then one line per signal ("<path> <member> <arguments>"), and exits after a
signal whose arguments name the object path given as its one argument (the test's marker).
"""
import sys

from jeepney import DBusAddress, HeaderFields, MatchRule, new_method_call
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

marker = sys.argv[1]
rule = MatchRule(type='signal', path_namespace='/org/freedesktop/secrets')
service = DBusAddress('/org/freedesktop/secrets', bus_name='org.freedesktop.secrets',
                      interface='org.freedesktop.Secret.Service')

with open_dbus_connection(bus='SESSION') as connection:
    with connection.filter(rule, bufsize=10000) as queue:
        connection.send_and_get_reply(message_bus.AddMatch(rule))
        connection.send_and_get_reply(new_method_call(service, 'OpenSession', 'sv', ('plain', ('s', ''))))
        print('ready', flush=True)
        while True:
            message = connection.recv_until_filtered(queue)
            fields = message.header.fields
            print(fields[HeaderFields.path], fields[HeaderFields.member], *message.body, flush=True)
            if marker in message.body:
                break
