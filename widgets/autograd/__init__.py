"""autograd."""
