import GRDBSQLite
import CSodium
print("secstore-benchmark: under construction", sqlite3_libversion_number(), sodium_init())
