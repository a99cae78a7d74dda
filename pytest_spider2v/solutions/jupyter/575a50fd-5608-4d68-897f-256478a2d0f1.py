# Clear every output (and execution count) of ~/Desktop/linear_regression.ipynb and save it:
# nbconvert's --clear-output rewrites the notebook in place.
# %% clear the outputs in place
import subprocess
done = subprocess.run(["jupyter", "nbconvert", "--clear-output", "--inplace", "linear_regression.ipynb"],
                      cwd="/home/user/Desktop", capture_output=True, text=True, timeout=120)
print(done.returncode, done.stderr[-300:])

# %%
DONE
