# From notes 004, block 8: multinomial
import torch
torch.manual_seed(0)

import torch
import numpy as np


# labels --> one-hot  5类，label为0
a = torch.tensor([0])
a_v = torch.nn.functional.one_hot(a, num_classes=5)

# labels --> one-hot 
one_hot = torch.nn.functional.one_hot(target)
# one-hot --> labels
labels_again = torch.argmax(one_hot, dim=1)

np.testing.assert_equals(labels.numpy(), labels_again.numpy())
