# Whole-binary tests (filled in below).
