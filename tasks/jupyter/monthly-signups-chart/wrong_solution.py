# Wrong on purpose: counts with value_counts(), which orders the months by frequency, not by date
# %% based-on: solution.py
# %% replace 3: type the counting and plotting code into the new cell
pyautogui.typewrite(
    "signups['month'] = signups['signup_date'].dt.strftime('%Y-%m')\n"
    "monthly = signups['month'].value_counts().rename_axis('month').reset_index(name='signups')\n"
    "monthly.to_csv('monthly_signups.csv', index=False)\n"
    "fig, ax = plt.subplots(figsize=(8, 4))\n"
    "ax.bar(monthly['month'], monthly['signups'])\n"
    "ax.set_title('Monthly sign-ups')\n"
    "ax.set_xlabel('Month')\n"
    "ax.set_ylabel('Sign-ups')\n"
    "fig.savefig('signups_chart.png')",
    interval=0.01,
)
