"""The families' test suites, written once for the project (tests/test_<operator>.py imports one)."""
