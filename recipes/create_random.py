"""Random tensors with a seed: rand, randn, randint, normal and randperm

torch.manual_seed(n) restarts the random number generator, so every run of the recipe
draws the same numbers: run it twice, or with python, and compare. Change the seed
and they all change.

torch.rand draws uniformly from [0, 1); torch.randn from the standard normal
distribution (mean 0, standard deviation 1); torch.randint(low, high, size) draws
whole numbers from low up to high - 1 (high is left out, as with range);
torch.normal(mean, std, size) draws from a normal distribution of your choice.

torch.randperm(n) is 0 ... n - 1 in random order. Indexing with it shuffles the rows
of a data set without losing or repeating one: that is how a DataLoader shuffles.

The second draw after the seed below gives the same numbers as the first, and
torch.equal says True.

带随机种子的随机张量：rand、randn、randint、normal 和 randperm

torch.manual_seed(n) 让随机数生成器从头开始，所以每次运行这个配方抽到的数都一样：
运行两次，或者用 python 运行，比较一下结果。改变种子，所有的数都会变。

torch.rand 在 [0, 1) 上均匀抽样；torch.randn 从标准正态分布（均值 0，标准差 1）
抽样；torch.randint(low, high, size) 抽取从 low 到 high - 1 的整数（和 range 一样，
不包含 high）；torch.normal(mean, std, size) 从你指定的正态分布中抽样。

torch.randperm(n) 是把 0 ... n - 1 随机打乱的顺序。用它做索引，可以打乱数据集的
各行，而不会丢掉或重复任何一行：DataLoader 就是这样打乱数据的。

下面重新设定种子之后的第二次抽样，得到的数和第一次完全相同，torch.equal 会输出
True。

Category: creation
"""
import torch

torch.manual_seed(0)
uniform = torch.rand(2, 3)
normal = torch.randn(2, 3)
dice = torch.randint(1, 7, (2, 6))
heights = torch.normal(170.0, 10.0, (4,))
order = torch.randperm(5)
print(uniform)
print(normal)
print(dice)
print(heights)
print(order)

# Shuffle the rows of a small data set with the permutation.
data = torch.arange(10).view(5, 2)
shuffled = data[order]
print(shuffled)

# The same seed again: the same numbers again.
torch.manual_seed(0)
again = torch.rand(2, 3)
print(torch.equal(uniform, again))
