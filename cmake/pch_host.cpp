// Compiled only to build a precompiled header (cmake/BuildSpeed.cmake): intentionally empty.
