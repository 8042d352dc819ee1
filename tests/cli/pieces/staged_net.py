"""A small network in stages as torchvision's ResNets name them (layer1, layer2 beside a stem and a
head): what export_model.py --scope layer cuts by stage, and --scope modules=REGEX by name."""

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv = nn.Conv2d(width, width, 3, padding=1)
        self.norm = nn.BatchNorm2d(width)

    def forward(self, x):
        return torch.relu(x + self.norm(self.conv(x)))


class StagedNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.layer1 = nn.Sequential(Block(8), Block(8))
        self.layer2 = nn.Sequential(Block(8))
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        x = self.layer2(self.layer1(torch.relu(self.stem(x))))
        return self.fc(x.mean(dim=(2, 3)))


def make_model(batch=2):
    return StagedNet(), (torch.randn(batch, 3, 8, 8),)
