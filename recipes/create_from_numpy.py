"""The NumPy bridge: .numpy() and torch.from_numpy share memory

a.numpy() turns a CPU tensor into a NumPy array without copying anything: both look
at the same memory. a.add_(1) changes the tensor in place, and the array b prints
[2. 2. 2. 2. 2.] as well, though the code never touched it.

torch.from_numpy(a) goes the other way, again without a copy: np.add(a, 1, out=a)
changes the array in place, and the tensor b shows 2. too. It keeps NumPy's dtype:
NumPy's default is float64, so the print says dtype=torch.float64, not torch's
default float32.

torch.tensor(a) always copies. After a[0] = 100, the shared tensor b starts with
100. while the copy c still holds 2. everywhere.

Converting the dtype copies too: torch.from_numpy(image) is float64, and .float(), as
the notes write it to feed a float32 model, makes a float32 copy. The later change
image[0, 0] = 7 does not reach img, which stays all zeros. A tensor on the GPU has to
come to the CPU first: data.cpu().numpy().

NumPy 桥：.numpy() 和 torch.from_numpy 共享内存

a.numpy() 把 CPU 上的张量转换成 NumPy 数组，不复制任何数据：两者使用同一块内存。
a.add_(1) 原地修改张量之后，数组 b 也打印出 [2. 2. 2. 2. 2.]，尽管代码从没有
改动过它。

torch.from_numpy(a) 反方向转换，同样不复制：np.add(a, 1, out=a) 原地修改数组，
张量 b 也变成了 2.。它保留 NumPy 的数据类型：NumPy 默认是 float64，所以打印结果
显示 dtype=torch.float64，而不是 torch 默认的 float32。

torch.tensor(a) 总是复制数据。执行 a[0] = 100 之后，共享内存的张量 b 第一个元素
变成 100.，而副本 c 仍然全是 2.。

转换数据类型也会复制：torch.from_numpy(image) 是 float64，笔记中为了输入 float32
的模型而写的 .float() 会生成一个 float32 的副本。之后执行 image[0, 0] = 7 不会
影响 img，它仍然全是 0。GPU 上的张量要先移到 CPU：data.cpu().numpy()。

Category: creation
"""
import numpy as np
import torch

torch.manual_seed(0)

# tensor -> numpy: shared memory
a = torch.ones(5)
b = a.numpy()
print(b)
a.add_(1)
print(a)
print(b)

# numpy -> tensor: shared memory
a = np.ones(5)
b = torch.from_numpy(a)
np.add(a, 1, out=a)
print(a)
print(b)

# torch.tensor copies
c = torch.tensor(a)
a[0] = 100
print(b)
print(c)

# .float() on a float64 array's tensor copies
image = np.zeros((2, 2))
img = torch.from_numpy(image).float()
image[0, 0] = 7
print(torch.from_numpy(image).dtype, img.dtype)
print(img)
