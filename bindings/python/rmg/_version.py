"""Version of the bindings and the library versions they accept."""

__version__ = "0.7.0"

#: The bindings speak the C ABI of this MAJOR.MINOR (any PATCH). While MAJOR is 0, every MINOR
#: release may change the ABI (the SONAME carries it), so both numbers must match.
EXPECTED_ABI = (0, 7)
