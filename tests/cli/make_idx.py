#!/usr/bin/env python3
"""Writes MNIST-format IDX files for whole-binary tests (tests/cli/CliTests.cmake).

make_idx.py DIR TRAIN_COUNT TEST_COUNT [--images-magic-dims N] [--from SOURCE_DIR]
  Four raw files in DIR: train/t10k images (COUNT x 28 x 28) and labels (COUNT, 0..9).
  --images-magic-dims N writes the images' magic number with N dimensions (a wrong magic number).
  --from SOURCE_DIR takes the first COUNT images and labels of a real data set in SOURCE_DIR
    (raw or gzipped IDX files, e.g. Debian's Fashion-MNIST), so that a test trains on real
    pictures without paying for a whole epoch of 60000.
"""
import gzip
import os
import struct
import sys


def write(path, dims, data, magic_dims=None):
    with open(path, "wb") as f:
        f.write(bytes([0, 0, 8, magic_dims if magic_dims is not None else len(dims)]))
        for d in dims:
            f.write(struct.pack(">I", d))
        f.write(data)


def read_prefix(source_dir, name, count, item_bytes, header_bytes):
    """The header-less first COUNT items of SOURCE_DIR/NAME (or NAME.gz)."""
    for path, opener in ((os.path.join(source_dir, name), open), (os.path.join(source_dir, name + ".gz"), gzip.open)):
        if os.path.exists(path):
            with opener(path, "rb") as f:
                f.read(header_bytes)
                data = f.read(count * item_bytes)
            if len(data) != count * item_bytes:
                sys.exit(f"make_idx.py: {path} holds fewer than {count} items")
            return data
    sys.exit(f"make_idx.py: no {name} (raw or .gz) in {source_dir}")


def main():
    directory, train, test = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    magic_dims = None
    if "--images-magic-dims" in sys.argv:
        magic_dims = int(sys.argv[sys.argv.index("--images-magic-dims") + 1])
    source = sys.argv[sys.argv.index("--from") + 1] if "--from" in sys.argv else None
    os.makedirs(directory, exist_ok=True)
    for split, count in (("train", train), ("t10k", test)):
        if source:
            images = read_prefix(source, f"{split}-images-idx3-ubyte", count, 28 * 28, 16)
            labels = read_prefix(source, f"{split}-labels-idx1-ubyte", count, 1, 8)
        else:
            images = bytes((i * 7) % 256 for i in range(count * 28 * 28))
            labels = bytes(i % 10 for i in range(count))
        write(os.path.join(directory, f"{split}-images-idx3-ubyte"), [count, 28, 28], images, magic_dims)
        write(os.path.join(directory, f"{split}-labels-idx1-ubyte"), [count], labels)


if __name__ == "__main__":
    main()
