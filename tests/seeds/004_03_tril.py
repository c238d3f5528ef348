# From notes 004, block 3: torch. tile
import torch
torch.manual_seed(0)

a = torch.tril(torch.ones(5,5), diagonal=0)
a

tensor([[1., 0., 0., 0., 0.],
        [1., 1., 0., 0., 0.],
        [1., 1., 1., 0., 0.],
        [1., 1., 1., 1., 0.],
        [1., 1., 1., 1., 1.]])
        
        
        
a = torch.tril(torch.ones(5,5), diagonal=1)
# >>
tensor([[1., 1., 0., 0., 0.],
        [1., 1., 1., 0., 0.],
        [1., 1., 1., 1., 0.],
        [1., 1., 1., 1., 1.],
        [1., 1., 1., 1., 1.]])
        
        
a = torch.tril(torch.ones(5,5), diagonal=-1)
a
tensor([[0., 0., 0., 0., 0.],
        [1., 0., 0., 0., 0.],
        [1., 1., 0., 0., 0.],
        [1., 1., 1., 0., 0.],
        [1., 1., 1., 1., 0.]])
