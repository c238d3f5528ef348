"""multinomial in a loop: every call is a new random draw

torch.multinomial(nums, 1) picks one position of nums at random, each with probability
proportional to its weight. Called in a loop, every call is a new draw from the same
random generator, so the results change from line to line; torch.manual_seed(0) at
the top makes the whole sequence repeatable.

With nums = [0.5, 0.4, 0.1] the first loop prints position 0 seven times and position
1 three times; position 2, weight 0.1, happens not to come up in these ten draws.

Without replacement, multinomial(nums, 2) on two positions must return both, so only
the order is random: the position drawn first is picked by weight. For [0.1, 0.9] all
ten lines are [1, 0]; each time, [0, 1] had a chance of only 0.1.

With replacement=True a position can come again: for [0.99, 0.11] the loop prints
[0, 0] eight times and [0, 1] twice. These weights add up to 1.1, not 1: multinomial
only needs them non-negative and divides by their sum, so position 1 has probability
0.11 / 1.1 = 0.1.

multinomial 放在循环里：每次调用都是一次新的随机抽样

torch.multinomial(nums, 1) 随机抽取 nums 中的一个位置，每个位置被抽中的概率与它的
权重成正比。在循环里调用时，每次调用都从同一个随机数生成器重新抽样，所以每一行的
结果可能不同；开头的 torch.manual_seed(0) 让整串结果可以复现。

nums = [0.5, 0.4, 0.1] 时，第一个循环打印了 7 次位置 0、3 次位置 1；权重为 0.1 的
位置 2 在这 10 次里恰好一次也没有出现。

不放回抽样时，在只有两个位置的 nums 上调用 multinomial(nums, 2) 一定会把两个位置
都取出来，随机的只是顺序：先抽到哪个位置由权重决定。[0.1, 0.9] 的 10 行全是
[1, 0]；每一次出现 [0, 1] 的概率只有 0.1。

使用 replacement=True 时，同一个位置可以重复出现：[0.99, 0.11] 打印了 8 次 [0, 0]、
2 次 [0, 1]。这两个权重之和是 1.1 而不是 1：multinomial 只要求权重非负，会先除以
它们的和，所以位置 1 的概率是 0.11 / 1.1 = 0.1。

Category: math
"""
import torch

torch.manual_seed(0)

# torch.multinomial(input, num_samples, replacement=False, out=None)
nums = torch.tensor([0.5, 0.4, 0.1])
for _ in range(10):
    print(torch.multinomial(nums, 1))

nums = torch.tensor([0.1, 0.9])
for _ in range(10):
    print(torch.multinomial(nums, 2))

nums = torch.tensor([0.99, 0.11])
for _ in range(10):
    print(torch.multinomial(nums, 2, replacement=True))
