# From notes 003, block 5: nn.Sequential
import torch
import torch.nn as nn
torch.manual_seed(0)

model = nn.Sequential(
    nn.Linear(20, 10),
    nn.ReLU(),
    nn.Sequential(
        nn.Linear(10, 5),
        nn.ReLU()
    ),
    nn.Linear(5, 1)
)

input = torch.Tensor(5, 20)
res = model(input)
