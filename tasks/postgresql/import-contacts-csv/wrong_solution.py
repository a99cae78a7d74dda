# Wrong on purpose: keeps the newest duplicate (largest contact_id) instead of the oldest
# %% based-on: solution.py
# %% replace 4: keep the row with the smallest contact_id per email
pyautogui.typewrite(
    "DELETE FROM contacts a USING contacts b WHERE a.email = b.email AND b.contact_id > a.contact_id;\n",
    interval=0.01,
)
time.sleep(1)
