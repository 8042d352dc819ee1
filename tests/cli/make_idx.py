#!/usr/bin/env python3
"""Writes MNIST-format IDX files for whole-binary tests (tests/cli/CliTests.cmake).

make_idx.py DIR TRAIN_COUNT TEST_COUNT [--images-magic-dims N]
  Four raw files in DIR: train/t10k images (COUNT x 28 x 28) and labels (COUNT, 0..9).
  --images-magic-dims N writes the images' magic number with N dimensions (a wrong magic number).
"""
import os
import struct
import sys


def write(path, dims, data, magic_dims=None):
    with open(path, "wb") as f:
        f.write(bytes([0, 0, 8, magic_dims if magic_dims is not None else len(dims)]))
        for d in dims:
            f.write(struct.pack(">I", d))
        f.write(data)


def main():
    directory, train, test = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    magic_dims = None
    if "--images-magic-dims" in sys.argv:
        magic_dims = int(sys.argv[sys.argv.index("--images-magic-dims") + 1])
    os.makedirs(directory, exist_ok=True)
    for split, count in (("train", train), ("t10k", test)):
        write(os.path.join(directory, f"{split}-images-idx3-ubyte"), [count, 28, 28],
              bytes((i * 7) % 256 for i in range(count * 28 * 28)), magic_dims)
        write(os.path.join(directory, f"{split}-labels-idx1-ubyte"), [count], bytes(i % 10 for i in range(count)))


if __name__ == "__main__":
    main()
