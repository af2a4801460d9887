"""One module per schema revision, oldest first: ``v0001_baseline``, ``v0002_leases``,
``v0003_accounts``, ``v0004_ratings``, ``v0005_seeks``."""
