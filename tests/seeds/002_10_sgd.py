# From notes 002, block 10: sgd梯度下降
import torch
torch.manual_seed(0)

def sgd(params, lr, batch_size): 
    for param in params:
        param.data -= lr * param.grad / batch_size # ues .data to operate param without gradient track
