"""Parameter, buffer or plain tensor: what a module keeps

A module holds tensors in three ways, and each ends up in a different place.
An nn.Parameter assigned to self is learned: it is in parameters(), so the
optimizer trains it, and in state_dict(), so torch.save keeps it. A buffer
added with register_buffer is state but not learned: it is in buffers() and
state_dict(), not in parameters(); with persistent=False it stays out of the
state_dict too. A plain tensor attribute is in none of them: it is neither
trained nor saved, and model.to(device) leaves it behind.

Select m and compare the lists printed below. The Model tab lists its parameters
and buffers apart, each with its shape and whether it trains; the plain tensor is
not there. Then turn the plain tensor into a buffer and see which lists change.

Parameter、buffer 还是普通张量：模块保存了什么

模块用三种方式保存张量，它们各自出现在不同的地方。赋值给 self 的
nn.Parameter 是可学习的：它出现在 parameters() 中，因此优化器会训练它；
它也出现在 state_dict() 中，因此 torch.save 会保存它。用 register_buffer
添加的 buffer 是状态但不参与学习：它出现在 buffers() 和 state_dict() 中，
但不在 parameters() 中；加上 persistent=False 时它也不进入 state_dict。
普通的张量属性哪里都不出现：它既不被训练也不被保存，model.to(device)
也不会移动它。

选中 m，对比下面打印出的各个列表。“模型”页分别列出它的参数和 buffer，以及
各自的形状和是否参与训练；普通张量不在其中。然后把普通张量改成 buffer，看看
哪些列表发生了变化。
"""
import torch
import torch.nn as nn


class Scaler(nn.Module):
    """Subtracts a fixed mean, then multiplies by a learned scale."""

    def __init__(self):
        super().__init__()
        # A Parameter: trained by the optimizer and saved.
        self.scale = nn.Parameter(torch.ones(3))
        # A buffer: saved and moved with the module, never trained.
        self.register_buffer("mean", torch.tensor([0.5, 0.5, 0.5]))
        # A buffer kept out of the state_dict.
        self.register_buffer("calls", torch.zeros(1), persistent=False)
        # A plain tensor attribute: neither trained nor saved.
        self.note = torch.tensor([7.0, 8.0, 9.0])

    def forward(self, x):
        return (x - self.mean) * self.scale


m = Scaler()
# Learned: only the Parameter.
print(list(m.named_parameters()))
# Both buffers, the non-persistent one included.
print(list(m.buffers()))
# Saved: the Parameter and the persistent buffer.
print(list(m.state_dict().keys()))
print(m.note)
y = m(torch.tensor([1.0, 2.0, 3.0]))
print(y)
