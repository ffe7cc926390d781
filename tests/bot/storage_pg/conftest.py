"""The PostgreSQL backend's tests use the server and databases of tests/conftest.py
(``pg_server``, ``pg_dsn``: a new empty database, ``pg_migrated``: a migrated one)."""
