# From notes 004, block 5: model中的 forward 函数
import torch
torch.manual_seed(0)

## nn.Module 源代码
class Module:
  def __init__(self):
    super(Module,self).__init__()
    self._modules = OrderedDict()
    self.training = True 
  def __call__(self,*input , **kwargs):
    self.train(self.training)
    output = self.forward(*input, **kwargs)
    return output
