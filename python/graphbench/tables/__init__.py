"""Tables and target checks of results: blog_table, blog_targets, ddp_table, mnist_ratios."""
