//! The page around the canvas: banners, the context menu, the item editor, the side panel and its
//! tab, the help dialog, the 2-D view. Small state with no engine in it.

use crate::engine::scenario::InputItem;
use crate::ui::action::{EditorField, Menu, PanelAction, Tab};

/// The key/value/timestamp editor for one input item: what is typed, kept as text.
#[derive(Clone, Debug, PartialEq)]
pub struct Editor {
    pub index: usize,
    pub is_watermark: bool,
    pub key: String,
    pub value: String,
    pub ts: String,
    pub partition: String,
    /// Empty: no explicit arrival (100 ms after the item before).
    pub arrival: String,
    pub error: Option<String>,
}

impl Editor {
    /// The editor for input item `index`.
    pub fn of(index: usize, item: &InputItem) -> Editor {
        match item {
            InputItem::Element(e) => Editor {
                index,
                is_watermark: false,
                key: e.key.to_string(),
                value: e.value.to_string(),
                ts: e.ts.to_string(),
                partition: e.partition.to_string(),
                arrival: e.arrival.map(|a| a.to_string()).unwrap_or_default(),
                error: None,
            },
            InputItem::Watermark(_) | InputItem::SourceWatermark(_) => Editor {
                index,
                is_watermark: true,
                key: String::new(),
                value: String::new(),
                ts: item.watermark().unwrap_or(0).to_string(),
                partition: match item {
                    InputItem::SourceWatermark(m) => m.partition.to_string(),
                    _ => "0".into(),
                },
                arrival: match item {
                    InputItem::SourceWatermark(m) => m.arrival.map(|a| a.to_string()).unwrap_or_default(),
                    _ => String::new(),
                },
                error: None,
            },
            InputItem::Control(c) => Editor {
                index,
                is_watermark: false,
                key: String::new(),
                value: String::new(),
                ts: String::new(),
                partition: "0".into(),
                arrival: c.arrival.map(|a| a.to_string()).unwrap_or_default(),
                error: Some(format!("a {} item has no fields to edit", c.kind.name())),
            },
        }
    }

    pub fn input(&mut self, field: EditorField, text: String) {
        let text: String = text.chars().take(220).collect();
        match field {
            EditorField::Key => self.key = text,
            EditorField::Value => self.value = text,
            EditorField::Ts => self.ts = text,
            EditorField::Partition => self.partition = text,
            EditorField::Arrival => self.arrival = text,
        }
        self.error = None;
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Chrome {
    pub banners: Vec<String>,
    pub menu: Option<Menu>,
    pub editor: Option<Editor>,
    pub two_d: bool,
    pub panel_open: bool,
    pub tab: Tab,
    pub help_open: bool,
    /// Sound cues as the playhead moves (`state::sound`); off by default.
    pub sound: bool,
}

impl Default for Chrome {
    fn default() -> Self {
        Chrome {
            banners: Vec::new(),
            menu: None,
            editor: None,
            two_d: false,
            panel_open: true,
            tab: Tab::Output,
            help_open: false,
            sound: false,
        }
    }
}

impl Chrome {
    pub fn reduce(&mut self, action: PanelAction) {
        match action {
            PanelAction::ToggleTwoD => self.two_d = !self.two_d,
            PanelAction::TogglePanel => self.panel_open = !self.panel_open,
            PanelAction::SetTab(t) => {
                self.tab = t;
                self.panel_open = true;
            }
            PanelAction::ToggleHelp => self.help_open = !self.help_open,
            PanelAction::DismissBanner(i) => {
                if i < self.banners.len() {
                    self.banners.remove(i);
                }
            }
            PanelAction::ShowBanner(b) => self.banners.push(b),
            PanelAction::ToggleSound => self.sound = !self.sound,
        }
    }
}
