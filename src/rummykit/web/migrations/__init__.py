"""The database schema's history as Alembic revisions (web/schema.py runs them).

``env.py`` is Alembic's entry point and ``versions/`` holds one module per change of
the schema.  A package (not a loose folder) so that the wheel carries it and mypy and
ruff check it as the rest of the code.
"""
