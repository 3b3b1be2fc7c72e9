import Domain

/// The input view at the bottom of the window: the weapon picker, or the system keyboard.
extension ScreenDrawing {
    /// `view` at its frame on the keyboard's grey, with the weapon picker's buttons or a keyboard.
    mutating func drawInputView(_ view: InputView) {
        let box = view.frame
        svg.open("g", [
            ("id", "input-view"), ("class", "input-view " + view.view),
            ("data-view", view.view), ("data-responder", view.responder),
            ("data-width", n(view.width)), ("data-height", n(view.height)),
        ])
        fill(box, ScreenTheme.Keyboard.background, [("id", "input-view-background")])
        fill(Rect(x: box.minX, y: box.minY, width: box.width, height: 0.5), ScreenTheme.barHairline)
        if view.view == "keyboard" {
            drawKeyboard(in: box)
        } else {
            svg.open("g", [("id", view.view == "weapon-picker" ? "weapon-picker" : nil), ("class", "input-buttons")])
            // The keys where the model puts them (input-handling hit-tests the same frames).
            for (name, button) in zip(view.buttons, view.buttonFrames) {
                if name == "close" {
                    drawKey(button, special: false, name: name)
                    centredText("Close", in: button, size: 15, minimum: 10, color: ScreenTheme.tint, weight: "500",
                                [("class", "title")])
                    continue
                }
                drawWeaponButton(name, in: button)
            }
            svg.close()
        }
        svg.close()
    }

    /// One of the weapon picker's squares: a key with the weapon's name and image file, ringed in
    /// the tint when it is the shown monster's weapon.
    private mutating func drawWeaponButton(_ name: String, in box: Rect) {
        let weapon = Weapon(named: name)
        let current = weapon != nil && weapon == monster?.weapon
        svg.open("g", [
            ("class", current ? "weapon-button current" : "weapon-button"),
            ("data-name", name), ("data-weapon", weapon?.name),
        ])
        drawKey(box, special: false)
        if current {
            svg.empty("rect", frame(box) + [
                ("rx", "8"), ("fill", "none"), ("stroke", ScreenTheme.tint), ("stroke-width", "2"),
            ])
        }
        let upper = Rect(x: box.minX, y: box.minY + box.height * 0.18, width: box.width, height: box.height * 0.4)
        let lower = Rect(x: box.minX, y: box.minY + box.height * 0.56, width: box.width, height: box.height * 0.28)
        centredText(weapon?.name ?? name, in: upper, size: 13, minimum: 8, color: ScreenTheme.label, weight: "600",
                    inset: 4, [("class", "title")])
        if let weapon {
            centredText(weapon.imageName, in: lower, size: 10, minimum: 6.5, color: ScreenTheme.tertiaryLabel,
                        inset: 4, [("class", "image-file")])
        }
        svg.close()
    }

    /// A key: a white (or grey, for `special`) rounded rectangle with a shadow under it; a key
    /// of the model (`name`) says which it is.
    private mutating func drawKey(_ box: Rect, special: Bool, name: String? = nil) {
        fill(Rect(x: box.minX, y: box.minY + 1, width: box.width, height: box.height), ScreenTheme.Keyboard.keyShadow, radius: 6)
        fill(box, special ? ScreenTheme.Keyboard.specialKey : ScreenTheme.Keyboard.key, radius: 6,
             name.map { [("class", "input-key"), ("data-name", $0)] } ?? [])
    }

    /// A placeholder for the system keyboard: three rows of letters and a row with the space bar.
    private mutating func drawKeyboard(in box: Rect) {
        svg.open("g", [("id", "keyboard"), ("class", "keyboard")])
        let rows: [[String]] = [
            "QWERTYUIOP".map(String.init),
            "ASDFGHJKL".map(String.init),
            ["⇧"] + "ZXCVBNM".map(String.init) + ["⌫"],
            ["123", "space", "return"],
        ]
        let padding = 6.0
        let gap = box.width > 500 ? 12.0 : 6.0
        let rowGap = box.height > 240 ? 12.0 : 10.0
        let keyHeight = max(0, (box.height - 2 * padding - 8 - 3 * rowGap) / 4)
        let unit = max(0, (box.width - 2 * padding - 9 * gap) / 10)
        let fullWidth = 10 * unit + 9 * gap
        for (rowIndex, keys) in rows.enumerated() {
            let y = box.minY + padding + 8 + Double(rowIndex) * (keyHeight + rowGap)
            // Widths in letter keys: the second row is narrower and centred; the others span the
            // whole width, shift and delete one and a half keys wide, the space bar five.
            let widths: [Double] = switch rowIndex {
            case 2: [1.5] + Array(repeating: 1, count: 7) + [1.5]
            case 3: [2.5, 5, 2.5]
            default: Array(repeating: 1, count: keys.count)
            }
            let gaps = Double(keys.count - 1) * gap
            let scale = rowIndex == 1 ? unit : max(0, (fullWidth - gaps) / widths.reduce(0, +))
            var x = box.midX - (widths.reduce(0, +) * scale + gaps) / 2
            for (key, width) in zip(keys, widths) {
                let keyBox = Rect(x: x, y: y, width: width * scale, height: keyHeight)
                drawKey(keyBox, special: width != 1)
                let size = key.count > 1 ? 15.0 : min(22, keyHeight * 0.5)
                centredText(key, in: keyBox, size: size, minimum: 8, color: ScreenTheme.label, inset: 2)
                x += keyBox.width + gap
            }
        }
        svg.close()
    }
}
