# From notes 004, block 10: squeeze  and unsqueeze
import torch
torch.manual_seed(0)

a=torch.randn(1,1,3)
print(a.shape)  # (1,1,3)
b=torch.squeeze(a)
print(b.shape)  # (3)
c=torch.squeeze(a,0)  
print(c.shape)   # (1,3)
d=torch.squeeze(a,1)
print(d.shape)    # (1,3)
e=torch.squeeze(a,2)#如果去掉第三维，则数不够放了，所以直接保留
print(e.shape)    #(1,1,3)



a=torch.randn(1,3)
print(a.shape)  # (1,3)
b=torch.unsqueeze(a,0)
print(b.shape)  # (1,1,3)
c=torch.unsqueeze(a,1)
print(c.shape) # (1,1,3)
d=torch.unsqueeze(a,2)
print(d.shape)    # (1,3,1)
